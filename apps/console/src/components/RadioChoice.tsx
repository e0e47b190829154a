/** One of a few options, as radio buttons under a legend. */
export function RadioChoice<T extends string>({
  legend,
  name,
  value,
  onChange,
  options,
}: {
  legend: string;
  name: string;
  value: T;
  onChange: (value: T) => void;
  options: ReadonlyArray<{ value: T; label: string }>;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="check">
          <input type="radio" name={name} checked={value === option.value} onChange={() => onChange(option.value)} /> {option.label}
        </label>
      ))}
    </fieldset>
  );
}
