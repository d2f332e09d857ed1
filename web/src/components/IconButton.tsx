// A button that shows only an icon: its name for assistive technology is `label`.
import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './Icon';

export function IconButton({
  icon,
  label,
  danger = false,
  size = 16,
  ...button
}: { icon: IconName; label: string; danger?: boolean; size?: number } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className' | 'aria-label'>) {
  return (
    <button type="button" className={danger ? 'icon-btn icon-btn-danger' : 'icon-btn'} aria-label={label} {...button}>
      <Icon name={icon} size={size} />
    </button>
  );
}
