/** The end of the UTC clock hour holding `time`, computed independently of the module under test. */
export function nextUtcHour(time: number): number {
  const date = new Date(time);
  date.setUTCMinutes(60, 0, 0);
  return date.getTime();
}
