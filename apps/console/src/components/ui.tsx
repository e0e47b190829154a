import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { describeError } from '../errors';

/** An error in words, announced to screen readers. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="notice error" role="alert">
      {describeError(error)}
    </p>
  );
}

/** A line that says what this key's scopes leave out, so nothing is missing without a reason. */
export function ScopeNote({ children }: { children: ReactNode }) {
  return <p className="notice scope">{children}</p>;
}

/**
 * A one-time secret in a modal dialog: focus moves into it and stays there (the page behind is inert), it is
 * announced as a dialog with its label, and only "I have saved it" closes it (Escape does not, so that a
 * stray key press cannot lose the secret).
 */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const value = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    value.current?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="secret"
      aria-labelledby={`${id}-heading`}
      aria-describedby={`${id}-why`}
      onCancel={(event) => event.preventDefault()}
      onClose={onDone}
    >
      <h2 id={`${id}-heading`}>{label}</h2>
      <p id={`${id}-why`}>Copy it now: it is shown only this once and cannot be shown again.</p>
      <div className="row">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input id={id} className="secret-value" readOnly value={secret} ref={value} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton value={secret} label="the secret" />
      </div>
      <p>
        <button type="button" onClick={() => dialog.current?.close()}>
          I have saved it
        </button>
      </p>
    </dialog>
  );
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago" / "in 5 minutes", from the largest unit that fits. */
export function relativeTime(at: Date, now = Date.now()): string {
  const seconds = Math.round((at.getTime() - now) / 1000);
  if (Math.abs(seconds) < 10) return 'just now';
  const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? UNITS[UNITS.length - 1]!;
  return RELATIVE.format(Math.trunc(seconds / size), unit);
}

/** A time as "5 minutes ago"; the exact local time on hover, and for screen readers in its title. */
export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toLocaleString()}>
      {relativeTime(date)}
    </time>
  );
}

/** A button that copies `value`, then says so next to it (announced). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const reset = setTimeout(() => setState('idle'), 2_000);
    return () => clearTimeout(reset);
  }, [state]);
  return (
    <>
      <button
        type="button"
        className="quiet"
        onClick={() =>
          void navigator.clipboard.writeText(value).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
      >
        Copy<span className="visually-hidden"> {label}</span>
      </button>
      <span role="status" className="hint">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : ''}
      </span>
    </>
  );
}

/** An id in full, with a copy button. */
export function Id({ value, label }: { value: string; label: string }) {
  return (
    <span className="id">
      <code>{value}</code> <CopyButton value={value} label={label} />
    </span>
  );
}

/** A table that scrolls sideways inside its card on a narrow screen; focusable so that the keyboard can scroll it. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** What an action did, announced. */
export function Done({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p className="notice done" role="status">
      {children}
    </p>
  );
}

/** A link to this topic in the API reference (Swagger UI, served by the API at /docs). */
export function DocsLink({ tag, children }: { tag: string; children: ReactNode }) {
  return (
    <p className="docs-link hint">
      <a href={`/docs#/${encodeURIComponent(tag)}`}>{children}</a>
    </p>
  );
}

export function Status({ value }: { value: string }) {
  return <span className={`status status-${value}`}>{value}</span>;
}

/** Cursor paging: the cursors of the pages before this one, so Previous works too. */
export function usePager() {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  return {
    cursor,
    page: cursors.length,
    next: (nextCursor: string) => setCursors([...cursors, nextCursor]),
    previous: () => setCursors(cursors.slice(0, -1)),
    reset: () => setCursors([undefined]),
  };
}

/** Previous and next page of a list; nothing while the list fits on its first page. */
export function Pager({ pager, nextCursor, label }: { pager: ReturnType<typeof usePager>; nextCursor: string | null | undefined; label: string }) {
  if (pager.page <= 1 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" onClick={pager.previous} disabled={pager.page <= 1}>
        Previous page
      </button>
      <span>Page {pager.page}</span>
      <button type="button" onClick={() => nextCursor && pager.next(nextCursor)} disabled={!nextCursor}>
        Next page
      </button>
    </nav>
  );
}
