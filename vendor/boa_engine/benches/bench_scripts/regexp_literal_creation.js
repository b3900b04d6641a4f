(function () {
  let regExp = /hello/i;

  return regExp;
})();
