import { describe, expect, it } from 'vitest';
import { ALERT_TYPES, alertColor, alertType } from './alert';
import { CONFIRM_DEFAULTS, confirmText } from './confirm';
import { TOAST_DURATION_MS, TOAST_LIMIT, toastDuration } from './toast';

describe('alert types', () => {
  it.each(ALERT_TYPES.map((t) => [t]))('accepts %s', (type) => {
    expect(alertType(type)).toBe(type);
  });

  it.each([['error'], ['Danger'], [''], [undefined], [null], [3], [{ type: 'danger' }]])('falls back to info for %j', (value) => {
    expect(alertType(value)).toBe('info');
    expect(alertColor(value)).toBe(alertColor('info'));
  });

  it('draws danger red and warning yellow', () => {
    expect(alertColor('danger')).toBe('red');
    expect(alertColor('warning')).toBe('yellow');
  });
});

describe('confirm dialog', () => {
  it('says the default texts', () => {
    expect(confirmText()).toEqual({
      title: 'Are you sure?',
      text: "You won't be able to revert this!",
      confirmLabel: 'Yes, delete it!',
      cancelLabel: 'Cancel',
    });
  });

  it('takes the caller’s texts, keeping defaults for blank ones', () => {
    expect(confirmText({ title: 'Remove the store?', confirmLabel: '  ' })).toEqual({
      ...CONFIRM_DEFAULTS,
      title: 'Remove the store?',
    });
  });
});

describe('toasts', () => {
  it('stay 3000 ms and stack up to 5', () => {
    expect(TOAST_DURATION_MS).toBe(3000);
    expect(TOAST_LIMIT).toBe(5);
    expect(toastDuration('info')).toBe(3000);
    expect(toastDuration('success', ['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe(3000);
  });

  it.each([
    [0, 3000],
    [1, 3000],
    [6, 3000],
    [7, 3500],
    [10, 5000],
  ])('an error listing %i messages stays %i ms', (count, want) => {
    expect(toastDuration('error', Array.from({ length: count }, (_, i) => `message ${i}`))).toBe(want);
  });
});
