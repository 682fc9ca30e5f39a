/** A code that is not yet words: letters and digits joined by underscores ("pending_payment", "PRINT_SPACE_IS_MISSING"). */
const CODE = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*$/;

/**
 * The words for a code: the table's, else the code made readable ("PRINT_SPACE_IS_MISSING" reads "Print space is
 * missing"), so a code no table knows yet still never shows raw. Text that is already words is kept as it is.
 */
export function label(table: Readonly<Record<string, string>>, code: string): string {
  const known = table[code];
  if (known) return known;
  if (!CODE.test(code)) return code;
  const words = code.replace(/_/g, ' ');
  const lower = words === words.toUpperCase() ? words.toLowerCase() : words;
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
