/**
 * The hosted capture page's link for one handoff token. The token goes in the fragment: browsers
 * never send a fragment to the server or in a Referer, so it stays out of access logs and proxies.
 */
export function captureUrl(publicUrl: string, handoffToken: string): string {
  return `${publicUrl}/capture#${handoffToken}`;
}
