module.exports = async function globalTeardown() {
  await globalThis.__SVC__.stop();
};
