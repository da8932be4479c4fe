/** Money is integer cents everywhere inside; the API speaks decimal strings with two fraction digits. */

/** A price as the operator writes it: "25", "25.5" or "25.00"; at most 1,000,000.00. */
export const PRICE_PATTERN = /^(0|[1-9]\d{0,6})(\.\d{1,2})?$/;

export function parseCents(price: string): number {
  const [whole, fraction = ''] = price.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
