/**
 * Per-object memoisation: the answer for an object is computed once and kept as long as the
 * object lives. The analyses never change the objects they read, so a kept answer stays right.
 */
export function memoizedPerObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const answers = new WeakMap<K, V>();
  return (key) => {
    if (answers.has(key)) return answers.get(key) as V;
    const answer = compute(key);
    answers.set(key, answer);
    return answer;
  };
}
