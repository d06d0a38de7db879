let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
/**
 * The hashing library (a native module) is loaded with the first password to hash or check, not
 * at start: a server process that never signs anyone in saves its 4 MB of memory.
 */
const loadArgon2 = () => {
  argon2 ??= import('@node-rs/argon2');
  return argon2;
};

// Algorithm.Argon2id is an ambient const enum, which isolatedModules cannot read; its value is 2.
const ARGON2ID = 2;
// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (about 30 ms on this machine).
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return loadArgon2().then(({ hash }) => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  // Outside the try: a library that cannot load is an error to see, not a wrong password.
  const { verify } = await loadArgon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Checked against when no user has the given e-mail, so that a wrong e-mail costs as much
 * time as a wrong password and sign-in timing does not tell which accounts exist.
 */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password');
  await verifyPassword(await dummyHash, password);
}
