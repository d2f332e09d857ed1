// A form's own error line (not tied to one field), announced as an alert; nothing when there is none.
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
