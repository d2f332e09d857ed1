// Status badge values of SPEC section 3; any other value reads "Unknown".
const KNOWN = {
  active: 'Active',
  inactive: 'Inactive',
  maintenance: 'Maintenance',
  error: 'Error',
} as const;

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const key = (status ?? '').toLowerCase() as keyof typeof KNOWN;
  const known = key in KNOWN;
  return <span className={`badge badge-${known ? key : 'unknown'}`}>{known ? KNOWN[key] : 'Unknown'}</span>;
}

/** A small coloured pill for free-form values (live, building, verified...). */
export function Pill({ tone, children }: { tone: 'green' | 'yellow' | 'red' | 'gray' | 'blue'; children: string }) {
  return <span className={`pill pill-${tone}`}>{children}</span>;
}
