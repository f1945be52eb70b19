// Brings the outcome of what the user just did onto the screen: a result under a long form, a connection error
// under the intro card on a phone. Nothing moves when its start is already in view.
export function reveal(el: Element): void {
  const box = el.getBoundingClientRect()
  const height = window.innerHeight
  if (box.top >= 0 && box.bottom <= height) return
  // Tall outcomes show their start; short ones just enough to be whole.
  const tall = box.height > height * 0.6
  if (tall && box.top >= 0 && box.top <= height * 0.4) return
  el.scrollIntoView({ block: tall ? 'start' : 'nearest' })
}
