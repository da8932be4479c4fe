import type { en } from './en.js';

/**
 * The shape every catalogue has: English's keys, no more and no fewer (an extra key is an excess
 * property, a missing one a type error), each a message whose `{placeholders}` are filled when it
 * is shown. Words stay out of the code; the code names messages.
 */
type English = typeof en;
export type MessageKey = keyof English;
export type Catalogue = { readonly [K in MessageKey]: string };

/** The `{name}`s of a message, as a union of names (never when it has none). */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;

/** What fills a placeholder: a name or number, or another message (shown in the same language). */
export type Filler = string | number | Phrase;
export type ParamsOf<K extends MessageKey> = { readonly [N in Placeholders<English[K]>]: Filler };

/** A message still to be put in words: kept in state as such, so a change of language rewords it too. */
export type Phrase = {
  [K in MessageKey]: [Placeholders<English[K]>] extends [never] ? { readonly key: K } : { readonly key: K; readonly params: ParamsOf<K> };
}[MessageKey];

/** The arguments after a key: none for a message without placeholders, else its fillers. */
export type ArgsOf<K extends MessageKey> = [Placeholders<English[K]>] extends [never] ? [] : [params: ParamsOf<K>];

/** The messages without placeholders (a table of them can be shown with `t(key)` alone). */
export type PlainKey = { [K in MessageKey]: ArgsOf<K> extends [] ? K : never }[MessageKey];

export function phrase<K extends MessageKey>(key: K, ...args: ArgsOf<K>): Phrase {
  return (args[0] ? { key, params: args[0] } : { key }) as Phrase;
}

/** The `{name}`s a message text holds, in order of first use (for the catalogues' check). */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))];
}

/** A phrase in the words of `catalogue`; a placeholder without a filler stays visible rather than vanishing. */
export function format(catalogue: Catalogue, p: Phrase): string {
  const params: Partial<Record<string, Filler>> = 'params' in p ? p.params : {};
  return catalogue[p.key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const filler = params[name];
    if (filler === undefined) return whole;
    return typeof filler === 'object' ? format(catalogue, filler) : String(filler);
  });
}
