// Piscina worker for the raw round-trip baseline of `hookwarden bench` and bench/: returns its task.
export default function echo<T>(task: T): T {
  return task;
}
