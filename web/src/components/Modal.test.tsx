import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { Modal } from './Modal';
import { ConfirmDialog } from './ConfirmDialog';

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>open</button>
      <Modal open={open} onClose={() => setOpen(false)} title="Title" footer={<button>Last</button>}>
        <input aria-label="First field" />
      </Modal>
    </>
  );
}

it('is a labelled dialog that focuses inside, traps Tab and closes on Escape', () => {
  render(<Harness />);
  const opener = screen.getByText('open');
  opener.focus();
  fireEvent.click(opener);
  const dialog = screen.getByRole('dialog', { name: 'Title' });
  expect(dialog.getAttribute('aria-modal')).toBe('true');
  expect(document.activeElement).toBe(screen.getByLabelText('First field'));

  screen.getByText('Last').focus();
  fireEvent.keyDown(document, { key: 'Tab' });
  expect(document.activeElement).toBe(screen.getByLabelText('Close dialog'));
  fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
  expect(document.activeElement).toBe(screen.getByText('Last'));

  fireEvent.keyDown(document, { key: 'Escape' });
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(document.activeElement).toBe(opener);
});

it('asks for the typed text before confirming', () => {
  const onConfirm = jest.fn();
  render(<ConfirmDialog open title="Delete project" message="Sure?" requireText="my-app" confirmLabel="Delete" danger onConfirm={onConfirm} onCancel={() => {}} />);
  const confirm = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(true);
  fireEvent.change(screen.getByLabelText(/to confirm/), { target: { value: 'my-app' } });
  expect(confirm.disabled).toBe(false);
  fireEvent.click(confirm);
  expect(onConfirm).toHaveBeenCalledTimes(1);
});
