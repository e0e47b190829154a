import { useState, type ReactNode } from 'react';

/**
 * A danger button that asks first: "Delete" opens a group named "Confirm deleting <target>" with the question,
 * "Yes, delete" and "Keep it".
 */
export function ConfirmAction({
  action,
  acting,
  target,
  question,
  busy = false,
  disabled = false,
  onConfirm,
}: {
  /** The button's word, e.g. "Delete". */
  action: string;
  /** The same in the group's name, e.g. "deleting". */
  acting: string;
  target: string;
  question: ReactNode;
  busy?: boolean;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming)
    return (
      <button type="button" className="danger" disabled={disabled} onClick={() => setConfirming(true)} aria-label={`${action} ${target}`}>
        {action}
      </button>
    );
  return (
    <span role="group" aria-label={`Confirm ${acting} ${target}`}>
      {question}{' '}
      <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
        Yes, {action.toLowerCase()}
      </button>{' '}
      <button type="button" onClick={() => setConfirming(false)}>
        Keep it
      </button>
    </span>
  );
}
