import type { UserDoc } from '../../server/src/features/users/users.repository';
import type { NewDoc, StoredDoc } from '../../server/src/store/store';

const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Sophia',
  'Elijah',
  'Mia',
  'Lucas',
  'Isabella',
  'Mateo',
  'Ava',
  'Levi',
  'Chloé',
  'Aarav',
  'Yuki',
  'Fatima',
  'Søren',
  'Zanele',
  'Diego',
  'Priya',
  'Chen',
  'Amara',
  'Hugo',
  'Ingrid',
  'Kofi',
  'Leila',
  'Marek',
  'Nadia',
  'Omar',
  'Rosa',
  'Tomás',
  'Wen',
  'Ana',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Garcia',
  'Miller',
  'Davis',
  'Martínez',
  'Nguyen',
  'Kim',
  'Okafor',
  'Patel',
  'Rossi',
  'Müller',
  'Dubois',
  'Kowalski',
  'Tanaka',
  'Silva',
  'Haddad',
  'Andersen',
  'Mensah',
  'Novak',
  'Ivanova',
  'Costa',
  "O'Brien",
  'Lindqvist',
  'Reyes',
  'Sato',
  'Abebe',
  'Fischer',
];
const DOMAINS = ['example.com', 'example.org', 'mail.example.net', 'inbox.example.io'];
const TWO_YEARS_MS = 2 * 365 * 24 * 60 * 60 * 1000;

/** Deterministic pseudo-random numbers (mulberry32), so the same seed gives the same people. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f']/g, '')
    .replace('ø', 'o')
    .toLowerCase();

/**
 * `count` believable demo members numbered from `start` (so repeated runs never reuse an e-mail):
 * about a third paid, one in twenty suspended, joined at spread-out times over the last two
 * years. All share `passwordHash` and are marked `demo`, so `npm run seed -- --remove` finds
 * them. None is ever an administrator: their password is published and their e-mails can be
 * worked out, so an administrator among them would open the console to anyone.
 */
export function demoUsers(
  start: number,
  count: number,
  passwordHash: string,
  now = Date.now(),
): Array<NewDoc<UserDoc> & Partial<StoredDoc>> {
  const next = random(start + 1);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const first = pick(FIRST);
    const last = pick(LAST);
    const createdAt = new Date(now - Math.floor(next() * TWO_YEARS_MS));
    return {
      name: `${first} ${last}`,
      email: `${plain(first)}.${plain(last)}.${start + i}@${pick(DOMAINS)}`,
      password: passwordHash,
      role: 'user',
      membershipTier: next() < 0.35 ? 'paid' : 'free',
      status: next() < 0.05 ? 'suspended' : 'active',
      demo: true,
      createdAt,
      updatedAt: createdAt,
    };
  });
}
