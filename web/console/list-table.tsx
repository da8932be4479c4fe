import type { ComponentChildren, JSX } from 'preact';
import { Notice } from './ui.js';

/** Attributes of a cell or row: a class, a test id. */
type Attrs<E extends EventTarget> = JSX.HTMLAttributes<E> & { 'data-testid'?: string };

/** One column of a ListTable: its header (`label`; hidden from sight but read out with `hideLabel`) and its cell. */
export interface Column<T> {
  label: string;
  hideLabel?: boolean;
  /** A shorter name for the cell on a phone (stacked), where it stands beside the value. */
  cellLabel?: string;
  cell: (row: T, index: number) => ComponentChildren;
  /** Extra attributes of the cell (a class, a test id). */
  attrs?: (row: T) => Attrs<HTMLTableCellElement>;
}

/**
 * The console's list table: a named table with one header row and one row per item. `stacked`
 * lays each row out as label/value pairs on a phone (style.css, table.stacked), from the
 * column labels, so the page never scrolls sideways.
 */
export function ListTable<T>({
  label,
  labelledBy,
  caption,
  columns,
  rows,
  rowKey,
  rowAttrs,
  stacked = false,
  empty,
}: {
  /** The table's accessible name, unless `labelledBy` or `caption` gives it. */
  label?: string;
  labelledBy?: string;
  /** A caption read out but not shown. */
  caption?: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  rowAttrs?: (row: T, index: number) => Attrs<HTMLTableRowElement>;
  stacked?: boolean;
  /** What is said instead of the table when there are no rows: that there are none, and how one comes. */
  empty?: ComponentChildren;
}) {
  if (empty !== undefined && rows.length === 0) return <Notice>{empty}</Notice>;
  return (
    <table class={stacked ? 'list stacked' : 'list'} aria-label={label} aria-labelledby={labelledBy}>
      {caption && <caption class="sr-only">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.label} scope="col">
              {c.hideLabel ? <span class="sr-only">{c.label}</span> : c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={rowKey(row)} {...rowAttrs?.(row, i)}>
            {columns.map((c) => (
              <td key={c.label} data-label={c.hideLabel ? undefined : (c.cellLabel ?? c.label)} {...c.attrs?.(row)}>
                {c.cell(row, i)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
