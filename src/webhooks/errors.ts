/** Why an operator request about webhooks was refused; the message is safe to show. */
export class WebhookOperationError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'INVALID_URL' | 'ENDPOINT_DISABLED',
    message: string,
  ) {
    super(message);
  }
}

export const endpointNotFound = () => new WebhookOperationError('NOT_FOUND', 'Webhook endpoint not found');
export const deliveryNotFound = () => new WebhookOperationError('NOT_FOUND', 'Webhook delivery not found');
export const profileNotFound = () => new WebhookOperationError('NOT_FOUND', 'Profile not found');
export const endpointDisabled = () => new WebhookOperationError('ENDPOINT_DISABLED', 'The endpoint is disabled; enable it first');
export const invalidUrl = (reason: string) => new WebhookOperationError('INVALID_URL', `url ${reason}`);
