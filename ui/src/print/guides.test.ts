import { GUIDES, guideBorder, guideRects, safeInset } from './guides';

it('keeps an eighth of an inch as the safe margin', () => {
  expect(safeInset(300)).toBe(38);
});

it('places the safe area that margin inside the print area', () => {
  expect(guideRects({ width: 4500, height: 5400, dpi: 300 })).toEqual({
    printArea: { x: 0, y: 0, width: 4500, height: 5400 },
    safeArea: { x: 38, y: 38, width: 4424, height: 5324 },
  });
  // A print area narrower than two margins keeps a safe area of no width, never a negative one.
  expect(guideRects({ width: 50, height: 5400, dpi: 300 }).safeArea.width).toBe(0);
});

it('draws the print area solid and the safe area dashed', () => {
  expect(guideBorder(GUIDES.printArea)).toBe('1.5px solid #228be6');
  expect(guideBorder(GUIDES.safeArea)).toBe('1.5px dashed #f76707');
});
