import { Link, useParams } from 'react-router';

/** The database explorer (SPEC section 2); its content arrives with the database feature. */
export function Component() {
  const { dbName = '' } = useParams();
  return (
    <div className="mx-auto max-w-3xl p-6 sm:p-10">
      <Link to="/admin/dashboard" className="text-sm text-accent-300 hover:text-accent-400">
        ← Back to dashboard
      </Link>
      <h1 className="mt-4 text-2xl font-semibold text-white">{dbName}</h1>
      <p className="mt-3 rounded-lg border border-white/10 bg-stone-950/70 p-4 text-stone-300">
        The database explorer is not built yet. It will appear here in a coming release.
      </p>
    </div>
  );
}
