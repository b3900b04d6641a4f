(function () {
  let regExp = /hello/i;

  return regExp.test("Hello World");
})();
