export async function showReplay(root, id) { root.textContent = id; return { unmount() {} }; }
