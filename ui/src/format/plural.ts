/** "1 record", "2 records": the count with the word that agrees with it (plural defaults to word + "s"). */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${count} ${count === 1 ? word : pluralWord}`;
}
