import { NumberInput, type NumberInputProps } from '@mantine/core';
import { useState } from 'react';

type BoundedNumberInputProps = Omit<NumberInputProps, 'value' | 'onChange' | 'min' | 'max' | 'error' | 'onBlur'> & {
  /** What the field is, in the message: "The size". */
  what: string;
  value: number;
  min: number;
  max: number;
  /** Called with a value within the bounds: as it is typed ('change'), or on Enter and when the field is left ('commit'). */
  onValue: (value: number) => void;
  applyOn?: 'change' | 'commit';
  /** A refusal from the editor to show under the field (the field's own bounds message comes first). */
  refusal?: string | null;
};

/** The message of a value out of bounds. */
function outOfBounds(what: string, min: number, max: number): string {
  return `${what} must be from ${min} to ${max}.`;
}

/**
 * A number field with bounds: a value outside them (or none) is never applied, the field says which values it
 * takes, and when it is left the value shown goes back to the one in use.
 */
export function BoundedNumberInput({ what, value, min, max, onValue, applyOn = 'change', refusal, ...rest }: BoundedNumberInputProps) {
  const [draft, setDraft] = useState<string | number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const valid = (v: string | number | null): v is number => typeof v === 'number' && v >= min && v <= max;
  const take = (v: string | number | null) => {
    if (!valid(v)) {
      setError(outOfBounds(what, min, max));
      return;
    }
    setError(null);
    if (v !== value) onValue(v);
  };
  const leave = () => {
    if (draft !== null && (applyOn === 'commit' || !valid(draft))) take(draft);
    setDraft(null);
  };
  return (
    <NumberInput
      {...rest}
      min={min}
      max={max}
      clampBehavior="none"
      value={draft ?? Math.round(value * 100) / 100}
      error={error ?? refusal ?? undefined}
      onChange={(v) => {
        setDraft(v);
        if (applyOn === 'change') take(v);
        else setError(valid(v) ? null : outOfBounds(what, min, max));
      }}
      onBlur={leave}
      onKeyDown={(event) => {
        if (event.key === 'Enter') leave();
      }}
    />
  );
}
