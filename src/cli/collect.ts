// commander's way to take a repeatable flag: every value, in order.
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
