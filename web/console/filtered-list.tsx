import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useLoad } from './lib.js';
import { Async, Notice } from './ui.js';

/** One page of a list as the operator API answers it. */
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}

export function Pager({ page, limit, total, go }: { page: number; limit: number; total: number; go: (p: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {pages} ({total})
      </span>
      <button type="button" disabled={page >= pages} onClick={() => go(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

/**
 * A paged list with a status filter (a profile's events, its verifications): the labelled select,
 * loading and error states, the empty notice and the pager. A new filter starts again at page 1;
 * `refresh` changes when something outside the list (a form) added to it.
 */
export function FilteredList<S extends string, T>({
  id,
  scope,
  statuses,
  load,
  refresh = 0,
  empty,
  children,
  searchLabel,
}: {
  /** The prefix of the control's DOM id. */
  id: string;
  /** What the list belongs to (a profile id): another one loads afresh. */
  scope: string;
  statuses: readonly S[];
  load: (query: { page: number; limit: number; status?: S; search?: string }) => Promise<Page<T>>;
  /** With a label, a search box too (a reference): its text goes to `load` as `search` once typed, trimmed. */
  searchLabel?: string;
  refresh?: number;
  empty: (status: S | '') => ComponentChildren;
  children: (items: T[], reload: () => void) => ComponentChildren;
}) {
  const [status, setStatus] = useState<S | ''>('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const term = search.trim();
  const state = useLoad(
    () => load({ page, limit: 20, ...(status ? { status } : {}), ...(term ? { search: term } : {}) }),
    [scope, status, term, page, refresh],
  );
  return (
    <>
      {searchLabel && (
        <>
          <label for={`${id}-search`}>{searchLabel}</label>
          <input
            id={`${id}-search`}
            type="search"
            maxLength={200}
            value={search}
            onInput={(e) => (setSearch(e.currentTarget.value), setPage(1))}
          />
        </>
      )}
      <label for={`${id}-status`}>Status</label>
      <select id={`${id}-status`} value={status} onChange={(e) => (setStatus(e.currentTarget.value as S | ''), setPage(1))}>
        <option value="">all</option>
        {statuses.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <Async state={state}>
        {(data) => (
          <>
            {data.items.length === 0 ? (
              <Notice>{term ? `Nothing found for “${term}”.` : empty(status)}</Notice>
            ) : (
              children(data.items, state.reload)
            )}
            <Pager page={data.page} limit={data.limit} total={data.total} go={setPage} />
          </>
        )}
      </Async>
    </>
  );
}
