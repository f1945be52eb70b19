// Every time the page shows, in one format: 24-hour HH:MM:SS (hourCycle h23; `hour12: false` alone gives
// "24:05:00" after midnight in some locales), with milliseconds where events come faster than seconds.
const format = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })

export const clock = (at: number) => format.format(at)
export const clockMs = (at: number) => `${format.format(at)}.${String(Math.floor(at) % 1000).padStart(3, '0')}`
