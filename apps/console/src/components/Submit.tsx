import type { ReactNode } from 'react';
import { ErrorNotice } from './ui';

/** A form's submit button on a line of its own, and what went wrong with the last submit. */
export function Submit({ disabled, error, children }: { disabled: boolean; error: unknown; children: ReactNode }) {
  return (
    <>
      <div>
        <button type="submit" disabled={disabled}>
          {children}
        </button>
      </div>
      <ErrorNotice error={error} />
    </>
  );
}
