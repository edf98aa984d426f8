/** The longest name an owner may give a passkey, after trimming (1 character at least). */
export const PASSKEY_NAME_MAX_LENGTH = 60;
