import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { MfaCodeInput, emptyCode } from './MfaCodeInput';

function Harness({ onValue }: { onValue?: (v: string[]) => void }) {
  const [v, setV] = useState<string[]>(emptyCode);
  return (
    <MfaCodeInput
      value={v}
      onChange={(next) => {
        setV(next);
        onValue?.(next);
      }}
    />
  );
}

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];

it('renders six one-digit boxes with labels', () => {
  render(<Harness />);
  expect(boxes()).toHaveLength(6);
  expect(screen.getByLabelText('Digit 1 of 6')).toBeTruthy();
  expect(document.activeElement).toBe(boxes()[0]);
});

it('moves focus forward as digits are typed and ignores non-digits', () => {
  render(<Harness />);
  fireEvent.change(boxes()[0], { target: { value: '4' } });
  expect(boxes()[0].value).toBe('4');
  expect(document.activeElement).toBe(boxes()[1]);
  fireEvent.change(boxes()[1], { target: { value: 'x' } });
  expect(boxes()[1].value).toBe('');
  expect(document.activeElement).toBe(boxes()[1]);
});

it('goes back one box on Backspace in an empty box', () => {
  render(<Harness />);
  fireEvent.change(boxes()[0], { target: { value: '1' } });
  fireEvent.change(boxes()[1], { target: { value: '2' } });
  expect(document.activeElement).toBe(boxes()[2]);
  fireEvent.keyDown(boxes()[2], { key: 'Backspace' });
  expect(document.activeElement).toBe(boxes()[1]);
  // A filled box is cleared by the browser, not skipped.
  fireEvent.keyDown(boxes()[1], { key: 'Backspace' });
  expect(document.activeElement).toBe(boxes()[1]);
});

it('fills all six boxes from a pasted code', () => {
  const seen: string[][] = [];
  render(<Harness onValue={(v) => seen.push(v)} />);
  fireEvent.paste(boxes()[0], { clipboardData: { getData: () => ' 123 456 ' } });
  expect(boxes().map((b) => b.value)).toEqual(['1', '2', '3', '4', '5', '6']);
  expect(seen.at(-1)).toEqual(['1', '2', '3', '4', '5', '6']);
  expect(document.activeElement).toBe(boxes()[5]);
});

it('fills all boxes when an autofilled code lands in one box', () => {
  render(<Harness />);
  fireEvent.change(boxes()[0], { target: { value: '987654' } });
  expect(boxes().map((b) => b.value).join('')).toBe('987654');
});
