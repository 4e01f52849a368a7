// Piscina worker for the raw round-trip baseline: returns its task.
export default function echo<T>(task: T): T {
  return task;
}
