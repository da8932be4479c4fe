/**
 * The operator API's validation details (a schema path and a zod message) in a person's words,
 * so a form says "Name: needs at least 1 character", not "body.name: Too small: expected string
 * to have >=1 characters". Pure, so it is tested without a browser.
 */

/** Field names the API shortens, as the console's forms label them. */
const SPELLED_OUT = new Map([
  ['lat', 'Latitude'],
  ['lng', 'Longitude'],
  ['timezone', 'Time zone'],
  ['url', 'URL'],
]);

/** `body.baseline.maxDrift` → "Max drift"; `body.mandate.0` → "Mandate"; `body.lat` → "Latitude". */
export function fieldInWords(path: string): string {
  const parts = path.split('.').filter((p) => p && !/^\d+$/.test(p) && !['body', 'query', 'params', 'querystring'].includes(p));
  const last = parts[parts.length - 1];
  if (!last) return 'The request';
  const spelled = SPELLED_OUT.get(last);
  if (spelled) return spelled;
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/\burl\b/g, 'URL');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const plural = (n: string, word: string) => `${n} ${word}${n === '1' ? '' : 's'}`;

/** zod's wording of the common failures, said plainly; anything else as the server wrote it. */
function problemInWords(message: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^Too small: expected string to have >=(\d+) characters?/.exec(message))) return `needs at least ${plural(m[1]!, 'character')}`;
  if ((m = /^Too big: expected string to have <=(\d+) characters?/.exec(message))) return `may have at most ${plural(m[1]!, 'character')}`;
  if ((m = /^Too small: expected array to have >=(\d+) items?/.exec(message))) return `choose at least ${m[1]}`;
  if ((m = /^Too small: expected number to be >=?(-?[\d.]+)/.exec(message))) return `must be at least ${m[1]}`;
  if ((m = /^Too big: expected number to be <=?(-?[\d.]+)/.exec(message))) return `must be at most ${m[1]}`;
  if (/^Invalid input: expected number/.test(message)) return 'must be a number';
  if (/^Invalid input: expected string/.test(message)) return 'is required';
  if ((m = /^Invalid option: expected one of (.+)$/.exec(message)))
    return `must be one of ${m[1]!.replace(/"/g, '').split('|').join(', ')}`;
  if (/^Invalid (ISO )?datetime/i.test(message)) return 'must be a date and time';
  if (/^Invalid (URL|url)/.test(message)) return 'must be a web address (https://…)';
  // The server names its field in this one (`webhook_url must be an HTTPS address`); the form already does.
  if (/^\w+ must be an HTTPS address$/.test(message)) return 'must be an https:// address';
  if (/^Invalid UUID/i.test(message)) return 'must be an id';
  return message;
}

export function detailInWords(path: string, message: string): string {
  return `${fieldInWords(path)}: ${problemInWords(message)}`;
}
