// One line of `hookwarden doctor`: a check, whether it passed, what it found, and how to fix it.
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}
