// What a Manage screen says when a call fails: the API's status read as words the reader can act
// on. A 401 is not shown: the session ended, and the app goes back to signing in.
import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { useWords } from '../words';
import { failureKey } from './failure-key';

/**
 * The screen's last failure, and `run`, which runs a call and keeps its failure (clearing the
 * previous one first); it answers the call's result, or undefined when it failed.
 */
export function useFailure(onSessionEnded: () => void) {
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const run = async <T,>(call: () => Promise<T>): Promise<T | undefined> => {
    setFailure(undefined);
    try {
      return await call();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        onSessionEnded();
        return undefined;
      }
      setFailure(failureKey(err instanceof ApiError ? err.status : undefined));
      return undefined;
    }
  };
  return { failure, setFailure, run };
}

/** The failure, read out when it appears. */
export function Failure(props: { failure: string | undefined }) {
  const { t } = useWords();
  return props.failure ? (
    <p class="error" role="alert">
      {t(props.failure)}
    </p>
  ) : null;
}
