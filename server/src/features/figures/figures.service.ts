import type { PaymentPlan } from '@common/payment-plans';
import type {
  FiguresQuery,
  MembersFigures,
  MoneyAnswer,
  SourceFigures,
  VisitFigures,
} from '@common/schemas/figures';
import type { UsersRepository } from '../users/users.repository';
import type { FigureDaysRepository } from './figure-days.repository';
import { dayOf } from './member-events';
import { type MembersNow, membersFigures } from './members-figures';
import { moneyFigures } from './money-figures';
import { addDays, previousPeriod } from './periods';
import { sourceFigures, visitFigures } from './traffic-figures';

/** The roll-ups' first possible day: money adds its subscriptions up from there. */
const FIRST_DAY = '1970-01-01';

/** What the figures read of payments: the prices in force, when Stripe is connected. */
export interface PricesPort {
  plans(): Promise<{ available: boolean; plans: PaymentPlan[] }>;
}

/** The owner's figures, read from the daily roll-ups and the user record's kept counts. */
export class FiguresService {
  constructor(
    private readonly rollUps: { members: FigureDaysRepository; visits: FigureDaysRepository },
    private readonly users: UsersRepository,
    private readonly prices: PricesPort,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async members(query: FiguresQuery): Promise<MembersFigures> {
    const today = dayOf(this.now());
    const first = addDays(previousPeriod(query.from, query.to).from, -1);
    const [days, now] = await Promise.all([this.rollUps.members.between(first, today), this.membersNow()]);
    return membersFigures(query, days, now, today);
  }

  async money(query: FiguresQuery): Promise<MoneyAnswer> {
    const [{ available, plans }, days, members] = await Promise.all([
      this.prices.plans(),
      this.rollUps.members.between(FIRST_DAY, query.to),
      this.members({ ...query, step: 'month' }),
    ]);
    const freeAtStart = members.previous.free;
    const joined = members.period.signups;
    const conversion = freeAtStart + joined > 0 ? members.period.upgrades / (freeAtStart + joined) : null;
    if (!available) return { available, conversion, currencies: [], points: [] };
    return { available, conversion, ...moneyFigures(query, days, plans) };
  }

  async sources(query: FiguresQuery): Promise<SourceFigures[]> {
    return sourceFigures(await this.rollUps.members.between(query.from, query.to));
  }

  async visits(query: FiguresQuery): Promise<VisitFigures> {
    return visitFigures(await this.rollUps.visits.between(query.from, query.to), query.from, query.to);
  }

  /** Members (administrators left out) from the counts the store keeps per tier. */
  async membersNow(): Promise<MembersNow> {
    const [all, paid, admins] = await Promise.all([
      this.users.count(),
      this.users.count({ membershipTier: 'paid' }),
      this.users.find({ role: 'admin' }),
    ]);
    return {
      total: all - admins.length,
      paid: paid - admins.filter((admin) => admin.membershipTier === 'paid').length,
    };
  }
}
