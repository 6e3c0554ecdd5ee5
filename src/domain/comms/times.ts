import { validationError } from '../errors.ts';
import { isCalendarDate, zonedTimestamp } from '../fields/values.ts';

const WITH_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;

/** True when Intl knows the IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC in ms at the instant `utcMs`. */
function offsetAt(zone: string, utcMs: number): number {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * An ISO-8601 time as UTC. A time with an offset (or Z) stands alone; a local time
 * (`2026-12-01T09:30`) needs `zone`, an IANA name, and is read as wall-clock time there, next to
 * a DST change as calendars read it (wallToUtc).
 */
export function toUtc(value: string, param: string, zone: string | undefined): string {
  if (WITH_OFFSET.test(value)) {
    const iso = zonedTimestamp(value);
    if (iso === null) throw badTime(value, param);
    return iso;
  }
  const m = LOCAL.exec(value);
  // Date.UTC would roll 2026-02-30 over to March and 10:61 to 11:01.
  if (!m || !isCalendarDate(+m[1]!, +m[2]!, +m[3]!) || +m[4]! > 23 || +m[5]! > 59 || +(m[6] ?? 0) > 59) throw badTime(value, param);
  if (!zone) throw validationError(param, `${param} ${JSON.stringify(value)} has no UTC offset; add one (…Z, …+02:00) or give time_zone`, { rule: 'time_zone_required' });
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0), +(m[7] ?? '0').padEnd(3, '0'));
  return new Date(wallToUtc(zone, wall)).toISOString();
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The instant a wall-clock time (`wall`, its fields read as UTC) names in the zone, as calendars
 * resolve it (Temporal's "compatible", java.time): the offsets a day before and after are the
 * candidates; of those that give back this wall time, the earlier instant (a time a DST change
 * repeats is its first occurrence); none does in a gap the change skipped, and the offset from
 * before the gap moves the time forward by the gap (02:30 on a spring-forward night in New York
 * is 03:30 EDT, 07:30Z).
 */
function wallToUtc(zone: string, wall: number): number {
  const before = wall - offsetAt(zone, wall - DAY_MS);
  const after = wall - offsetAt(zone, wall + DAY_MS);
  const fits = [before, after].filter((t) => t + offsetAt(zone, t) === wall);
  return fits.length > 0 ? Math.min(...fits) : before;
}

function badTime(value: string, param: string) {
  return validationError(param, `${param} must be an ISO-8601 time such as 2026-12-01T09:30:00Z, got ${JSON.stringify(value)}`, { rule: 'format' });
}
