import { Component, type ReactNode } from 'react';
import { ErrorPage } from './error-page';

interface Props {
  children: ReactNode;
}

/**
 * Catches what a page throws while rendering, including a page whose code cannot be downloaded
 * (a stale chunk after a new deployment), and shows ErrorPage in its place. Keyed by the path
 * where it is used, so that going to another page starts afresh.
 */
export class ErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <ErrorPage error={this.state.error} />;
  }
}
