// What a buyer may type into a custom text (docs/personalization.md): the twin of renderer/design's checkTyped and
// its messages. The document's validator checks a dropdown's words with it too.

import type { Charset } from './document';

/** What a buyer reads next to a field they filled wrongly; renderer/design's messages. */
export const MESSAGES = {
  required: 'This field is required.',
  tooLong: (n: number) => `Use at most ${n} characters.`,
  oneLine: 'Use a single line of text.',
  letters: 'Use letters and spaces only.',
  alphanumeric: 'Use letters, digits and spaces only.',
  digits: 'Use digits only.',
  choose: 'Choose one of the options.',
  photoRequired: 'Upload a photo.',
} as const;


const LETTER = /[\p{L}\p{Mn}]/u;
const DIGIT = /\p{Nd}/u;

/** Whether charset lets a buyer type ch (one code point). */
export function allowedChar(charset: Charset | undefined, ch: string): boolean {
  switch (charset) {
    case 'letters':
      return ch === ' ' || LETTER.test(ch);
    case 'alphanumeric':
      return ch === ' ' || LETTER.test(ch) || DIGIT.test(ch);
    case 'digits':
      return ch >= '0' && ch <= '9';
    default:
      return true;
  }
}

/** The message for a typed text, or '' when it is fine; an empty text is refused only when required. */
export function checkTyped(s: string, charset: Charset | undefined, maxLength: number, required: boolean): string {
  if (s === '') return required ? MESSAGES.required : '';
  const chars = [...s];
  if (chars.some((c) => c < ' ' || c === '\u007f')) return MESSAGES.oneLine;
  if (chars.length > maxLength) return MESSAGES.tooLong(maxLength);
  if (chars.some((c) => !allowedChar(charset, c))) {
    return charset === 'letters' ? MESSAGES.letters : charset === 'alphanumeric' ? MESSAGES.alphanumeric : MESSAGES.digits;
  }
  return '';
}
