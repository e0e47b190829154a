import type { ReactNode } from 'react';
import { ErrorNotice, Pager, TableScroll, type usePager } from './ui';

/** A column heading; a numeric column is right-aligned, heading and cells alike. */
export type Column = string | { label: string; numeric: true };

export const numeric = (label: string): Column => ({ label, numeric: true });

/** A table with a caption for screen readers and a row of column headings, scrolling sideways on a narrow screen. */
export function DataTable({
  label,
  caption = label,
  columns,
  className,
  children,
  footer,
}: {
  label: string;
  caption?: string;
  columns: Column[];
  className?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <TableScroll label={label}>
      <table className={className}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className="number">
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {footer && <tfoot>{footer}</tfoot>}
      </table>
    </TableScroll>
  );
}

type Page<T> = { data: T[]; next_cursor?: string | null };

/** One page of a cursor-paged list as a table: its error, its rows (each with its key), a line when it is empty, and the pager. */
export function PagedTable<T>({
  list,
  pager,
  pagesLabel,
  empty,
  row,
  ...table
}: {
  list: { data?: Page<T>; error: unknown };
  pager: ReturnType<typeof usePager>;
  pagesLabel: string;
  empty: ReactNode;
  row: (item: T) => ReactNode;
  label: string;
  caption?: string;
  columns: Column[];
  className?: string;
}) {
  const items = list.data?.data;
  return (
    <>
      <ErrorNotice error={list.error} />
      {items && items.length > 0 && <DataTable {...table}>{items.map((item) => row(item))}</DataTable>}
      {items?.length === 0 && <p>{empty}</p>}
      <Pager pager={pager} nextCursor={list.data?.next_cursor} label={pagesLabel} />
    </>
  );
}
