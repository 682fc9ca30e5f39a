import { expect, test } from 'vitest';
import { mockupFileName, printFileName } from './editorState';

test('a print file downloads under a name that says what it is, not its storage key', () => {
  expect(printFileName('Summer tee', 'T-shirt', 'front', 3, '/blobs/p/7/7_r3.png?sig=x')).toBe('Summer tee - T-shirt - front - r3.png');
});

test('characters file systems refuse are left out, and a long campaign name is cut', () => {
  expect(printFileName('Cats/Dogs: "best"?', 'Mug wrap', 'wrap', 1, 'https://s3.example/p/1_r1.png')).toBe('Cats Dogs best - Mug wrap - wrap - r1.png');
  const name = printFileName('x'.repeat(300), 'Poster', 'front', 2, '/blobs/p/2_r2.png');
  expect(name).toBe(`${'x'.repeat(80)} - Poster - front - r2.png`);
});

test('a mockup downloads as what it is: the campaign, the product and side, and "mockup"', () => {
  expect(mockupFileName('Summer tee', 'T-shirt, front', '/api/files/p/41/design_11_7.png?v=abc')).toBe('Summer tee - T-shirt, front - mockup.png');
});
