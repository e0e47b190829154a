import { VersionPicker, type PickedVersion } from './VersionPicker';

/** What a run starts from: an agent version and its input. */
export type RunRequest = { version: PickedVersion; input: string };

export const NO_RUN_REQUEST: RunRequest = { version: { agentId: '', versionId: '' }, input: '' };

/** The version picker and the input of a run to start or to schedule; `idPrefix` keeps their ids apart. */
export function RunRequestFields({ idPrefix, value, onChange }: { idPrefix: string; value: RunRequest; onChange: (value: RunRequest) => void }) {
  return (
    <>
      <VersionPicker idPrefix={idPrefix} value={value.version} onChange={(version) => onChange({ ...value, version })} />
      <label htmlFor={`${idPrefix}-input`}>Input</label>
      <textarea
        id={`${idPrefix}-input`}
        required
        rows={3}
        value={value.input}
        onChange={(event) => onChange({ ...value, input: event.target.value })}
      />
    </>
  );
}
