import "server-only";
/** The API's error codes (README, The API) that domain rules can produce; the API layer maps them to HTTP. */
export type DomainErrorCode =
  | "RESOURCE_NOT_FOUND"
  | "INSUFFICIENT_PERMISSIONS"
  | "RESOURCE_CONFLICT"
  | "IMAGE_IN_USE"
  | "INVALID_PARAMETER"
  | "MISSING_REQUIRED_FIELD"
  | "PRECONDITION_FAILED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "QUOTA_EXCEEDED"
  | "RATE_LIMIT_EXCEEDED";

/**
 * A broken rule, told in one line (`message`) that can be shown to whoever asked; `field`, the
 * input field it is about when there is one, so a form can point at it without reading the message.
 */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}
