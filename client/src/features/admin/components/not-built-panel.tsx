/** What a console section shows until its feature is built: said plainly, not faked. */
export function NotBuiltPanel({ title }: { title: string }) {
  return (
    <section>
      <h1 className="text-2xl font-semibold text-white">{title}</h1>
      <p className="mt-3 max-w-xl rounded-lg border border-white/10 bg-white/5 p-4 text-stone-300">
        This section is not built yet. It will appear here in a coming release.
      </p>
    </section>
  );
}
