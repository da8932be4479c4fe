import { ApiError, VALIDATION_MESSAGE } from '../plugins/error-handler.js';

/**
 * Why an operator request about webhooks was refused; the message is safe to show. The
 * operator API answers it in its envelope as it answers its own errors.
 */
export class WebhookError extends ApiError {}

export const endpointNotFound = () => new WebhookError(404, 'NOT_FOUND', 'Webhook endpoint not found');
export const deliveryNotFound = () => new WebhookError(404, 'NOT_FOUND', 'Webhook delivery not found');
export const profileNotFound = () => new WebhookError(404, 'NOT_FOUND', 'Profile not found');
export const endpointDisabled = () => new WebhookError(409, 'ENDPOINT_DISABLED', 'The endpoint is disabled; enable it first');
/** A refused endpoint URL: the operator's request is invalid in its `url` field. */
export const invalidUrl = (reason: string) =>
  new WebhookError(400, 'VALIDATION_ERROR', VALIDATION_MESSAGE, [{ path: 'body.url', message: `url ${reason}` }]);
