/**
 * The password-confirmation proof for changes that can take the site (server: auth/reauth.ts).
 * Kept in memory only, never the password and never in storage: a reload asks again.
 */
let current: { proof: string; expiresAt: number } | null = null;
let prompt: (() => Promise<boolean>) | null = null;
let asking: Promise<boolean> | null = null;

export function currentProof(now = Date.now()): string | null {
  return current && current.expiresAt > now ? current.proof : null;
}

export function rememberProof(proof: string, expiresAt: string): void {
  current = { proof, expiresAt: Date.parse(expiresAt) };
}

export function forgetProof(): void {
  current = null;
}

/** The console's password dialog registers here; it resolves true once a proof was remembered. */
export function setPasswordPrompt(ask: (() => Promise<boolean>) | null): void {
  prompt = ask;
}

/** Opens the password dialog once, however many calls are waiting for it. */
export function askForPassword(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  asking ??= prompt().finally(() => {
    asking = null;
  });
  return asking;
}
