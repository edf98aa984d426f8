-- CreateTable
CREATE TABLE "referrer_view_daily" (
    "userId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "host" TEXT NOT NULL,
    "views" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "referrer_view_daily_pkey" PRIMARY KEY ("userId","day","host")
);

-- CreateTable
CREATE TABLE "blog_view_daily" (
    "userId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "blogId" TEXT NOT NULL,
    "views" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "blog_view_daily_pkey" PRIMARY KEY ("userId","day","blogId")
);

-- CreateIndex
CREATE INDEX "blog_view_daily_blogId_idx" ON "blog_view_daily"("blogId");

-- AddForeignKey
ALTER TABLE "referrer_view_daily" ADD CONSTRAINT "referrer_view_daily_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blog_view_daily" ADD CONSTRAINT "blog_view_daily_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blog_view_daily" ADD CONSTRAINT "blog_view_daily_blogId_fkey" FOREIGN KEY ("blogId") REFERENCES "blog"("id") ON DELETE CASCADE ON UPDATE CASCADE;
