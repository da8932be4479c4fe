/** Which rows of a list one page is: `limit` rows after the first `offset`. */
export interface Window {
  limit: number;
  offset: number;
}

/** One page of rows and the total count of the same filter, read concurrently: what every paged list answers. */
export async function paged<T>(rows: PromiseLike<T[]>, total: PromiseLike<{ n: number }[]>): Promise<{ rows: T[]; total: number }> {
  const [items, [counted]] = await Promise.all([rows, total]);
  return { rows: items, total: Number(counted?.n ?? 0) };
}
