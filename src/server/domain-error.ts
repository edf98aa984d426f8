/** The API's error codes (README, The API) that domain rules can produce; the API layer maps them to HTTP. */
export type DomainErrorCode =
  | "RESOURCE_NOT_FOUND"
  | "RESOURCE_CONFLICT"
  | "INVALID_PARAMETER"
  | "MISSING_REQUIRED_FIELD";

/** A broken rule, told in one line (`message`) that can be shown to whoever asked. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}
