import { validationError } from '../errors.ts';

/** At most this many recipients across to, cc and bcc of one email. */
export const MAX_RECIPIENTS = 50;

/** A pragmatic address check (local@domain.tld, no spaces, no display name); RFC 5321 length limit. */
const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function isAddress(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value);
}

/** One address or an array of them, checked and lower-cased in the domain part; names the bad one. */
export function addressList(value: string | string[] | undefined, param: string): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.map((raw, i) => {
    const address = raw.trim();
    const at = Array.isArray(value) ? `${param}[${i}]` : param;
    if (!isAddress(address)) throw validationError(at, `${at}: ${JSON.stringify(raw)} is not an email address (name@example.com)`, { rule: 'format' });
    const cut = address.lastIndexOf('@');
    return `${address.slice(0, cut)}@${address.slice(cut + 1).toLowerCase()}`;
  });
}

/** Checks the total across to, cc and bcc. */
export function checkRecipientCount(to: string[], cc: string[], bcc: string[]): void {
  const total = to.length + cc.length + bcc.length;
  if (total === 0) throw validationError('to', 'to needs at least one address', { rule: 'required' });
  if (total > MAX_RECIPIENTS) {
    throw validationError('to', `an email may have at most ${MAX_RECIPIENTS} recipients across to, cc and bcc; got ${total}`, { rule: 'max_items', max: MAX_RECIPIENTS });
  }
}
