/**
 * Per-object memoisation: the answer for an object is computed once and kept as long as the
 * object lives. The analyses never change the objects they read, so a kept answer stays right.
 */
export function memoizedPerObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const answers = new WeakMap<K, V>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined && !answers.has(key)) {
      answer = compute(key);
      answers.set(key, answer);
    }
    return answer as V;
  };
}
