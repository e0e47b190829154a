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

/** A secret shown this once, with a copy button. */
/**
 * A one-time secret in a modal dialog: focus moves into it and stays there (the page behind is inert), it is
 * announced as a dialog with its label, and only "I have saved it" closes it (Escape does not, so that a
 * stray key press cannot lose the secret).
 */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
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
        <input id={id} className="secret-value" readOnly value={secret} autoFocus onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" className="hint">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copying failed: select the text and copy it yourself.' : ''}
      </p>
      <button type="button" onClick={() => dialog.current?.close()}>
        I have saved it
      </button>
    </dialog>
  );
}

export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toISOString()}>
      {date.toLocaleString()}
    </time>
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
