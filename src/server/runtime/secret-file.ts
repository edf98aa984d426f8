import "server-only";
/**
 * Files that hold a secret (DATA_DIR/auth-secret, the development demo key in DATA_DIR/demo.json)
 * are readable by their owner only (docs/security.md): written with mode 0600, and narrowed to it
 * when found wider (a copy, an older version), since `writeFile`'s mode applies only on creation.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

const OWNER_ONLY = 0o600;

/** The file's text, or undefined when it does not exist. */
export async function readSecretFile(file: string): Promise<string | undefined> {
  try {
    const text = await readFile(file, "utf8");
    await chmod(file, OWNER_ONLY);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export async function writeSecretFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text, { mode: OWNER_ONLY });
  await chmod(file, OWNER_ONLY);
}
