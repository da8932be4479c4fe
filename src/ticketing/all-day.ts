const formatters = new Map<string, Intl.DateTimeFormat>();

function clockFormat(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

function isLocalMidnight(at: Date, timeZone: string): boolean {
  if (at.getUTCMilliseconds() !== 0) return false;
  return clockFormat(timeZone)
    .formatToParts(at)
    .filter((p) => p.type === 'hour' || p.type === 'minute' || p.type === 'second')
    .every((p) => Number(p.value) === 0);
}

/**
 * An event is all-day when it starts and ends on a local midnight of its time zone (UTC when
 * it has none), so it covers whole calendar days; an event without an end is never all-day.
 */
export function spansWholeDays(startsAt: Date, endsAt: Date | null, timeZone: string | null): boolean {
  if (!endsAt || endsAt.getTime() <= startsAt.getTime()) return false;
  const zone = timeZone ?? 'UTC';
  return isLocalMidnight(startsAt, zone) && isLocalMidnight(endsAt, zone);
}
