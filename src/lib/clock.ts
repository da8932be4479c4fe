/** The only source of "now" in the process, so tests can move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-11-22T12:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }

  set(at: Date | string): Date {
    this.current = new Date(at).getTime();
    return this.now();
  }
}
